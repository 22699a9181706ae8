// A select one can type into (issue 36.4): with a hundred communes or schools a plain <select> is a
// long scroll on a phone. The WAI-ARIA APG "editable combobox with list autocomplete" pattern: an
// input (role combobox) labelled by the field's label, a listbox of the options that match what is
// typed, accents and tone marks optional ("hoa binh" finds "Phường Hoà Bình" and "Phường Hòa
// Bình", shared/vietnamese.ts foldText), the option under the keys pointed at by
// aria-activedescendant. Keys: ↓/↑ open and move, Enter chooses, Escape closes (and then gives back
// the chosen name), Tab leaves. A tap on the field or its arrow opens the whole list, as a select
// would. The value is an option's `value` ('' for none); a text left that names no option is
// dropped on leaving, the text of exactly one option chooses it.
import { forwardRef, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { foldText } from '../../../shared/vietnamese';

export interface SearchableOption {
  value: string;
  label: string;
}

interface Props {
  label: ReactNode;
  options: SearchableOption[];
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  /** Shown in the empty field ("Chọn huyện"). */
  placeholder?: string;
  disabled?: boolean;
  error?: string;
  hint?: ReactNode;
  /** The options are loading (aria-busy). */
  busy?: boolean;
}

/** What a search compares: no marks, no case, one space between words. */
const searchKey = (text: string) => foldText(text).replace(/\s+/gu, ' ').trim();

/** Each word typed found in the option's name, in any order ("binh hoa" finds "Hoà Bình" too). */
function matches(options: SearchableOption[], typed: string): SearchableOption[] {
  const words = searchKey(typed).split(' ').filter(Boolean);
  if (words.length === 0) return options;
  return options.filter((option) => {
    const key = searchKey(option.label);
    return words.every((word) => key.includes(word));
  });
}

export const SearchableSelect = forwardRef<HTMLInputElement, Props>(function SearchableSelect(
  { label, options, value, onChange, onBlur, name, placeholder, disabled, error, hint, busy },
  ref,
) {
  const id = useId();
  const listId = `${id}-list`;
  const labelId = `${id}-label`;
  /** The text being typed; null while the field shows the chosen option's name. */
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);

  const chosen = options.find((option) => option.value === value);
  const shown = typed ?? chosen?.label ?? '';
  const listed = typed === null ? options : matches(options, typed);
  const expanded = open && !disabled;
  const activeOption = expanded && active >= 0 ? listed[active] : undefined;

  // The option under the keys stays in sight in a list that scrolls.
  useEffect(() => {
    if (!activeOption) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, activeOption]);

  const openAt = (index: number) => {
    setOpen(true);
    setActive(index);
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (option: SearchableOption) => {
    setTyped(null);
    close();
    if (option.value !== value) onChange(option.value);
  };
  /** Leaving the field: an empty text clears the choice, the exact name of one option chooses it, any other text is dropped. */
  const settle = () => {
    if (typed !== null) {
      const key = searchKey(typed);
      const exact = key ? options.filter((option) => searchKey(option.label) === key) : [];
      if (!key && value !== '') onChange('');
      else if (exact.length === 1 && exact[0]!.value !== value) onChange(exact[0]!.value);
    }
    setTyped(null);
    close();
  };
  const chosenIndex = () => Math.max(0, listed.findIndex((option) => option.value === value));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!expanded) openAt(event.altKey ? -1 : chosenIndex());
        else setActive((at) => Math.min(at + 1, listed.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!expanded) openAt(chosenIndex());
        else if (event.altKey) close();
        else setActive((at) => Math.max(at - 1, 0));
        break;
      case 'Enter':
        // Enter chooses in an open list; in a closed one it does what Enter does in a form.
        if (expanded && activeOption) {
          event.preventDefault();
          choose(activeOption);
        }
        break;
      case 'Escape':
        if (expanded || typed !== null) {
          event.preventDefault();
          event.stopPropagation(); // a dialog around the field stays open
          if (expanded) close();
          else setTyped(null);
        }
        break;
      default:
    }
  };

  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field searchable-select" data-invalid={error ? 'true' : undefined}>
      <label id={labelId} htmlFor={id}>
        {label}
      </label>
      <div className="searchable-select-control">
        <input
          ref={(element) => {
            inputRef.current = element;
            if (typeof ref === 'function') ref(element);
            else if (ref) ref.current = element;
          }}
          id={id}
          name={name}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeOption ? `${id}-option-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          aria-busy={busy || undefined}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="done"
          placeholder={placeholder}
          disabled={disabled}
          value={shown}
          onChange={(event) => {
            setTyped(event.target.value);
            openAt(event.target.value.trim() ? 0 : -1);
          }}
          onClick={() => (expanded ? close() : openAt(chosenIndex()))}
          onKeyDown={onKeyDown}
          onBlur={() => {
            settle();
            onBlur?.();
          }}
        />
        {/* The select's arrow: a tap opens the list (the field itself answers the keys). */}
        <span
          className="searchable-select-arrow"
          aria-hidden="true"
          onMouseDown={(event) => {
            event.preventDefault();
            if (disabled) return;
            inputRef.current?.focus();
            if (expanded) close();
            else openAt(chosenIndex());
          }}
        />
        <ul ref={listRef} id={listId} role="listbox" aria-labelledby={labelId} className="searchable-select-list" hidden={!expanded || listed.length === 0}>
          {expanded &&
            listed.map((option, index) => (
              <li
                key={option.value}
                id={`${id}-option-${index}`}
                data-index={index}
                role="option"
                aria-selected={option.value === value}
                className={index === active ? 'is-active' : undefined}
                // The field keeps the focus: a tap on an option must not blur it first.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(option)}
              >
                {option.label}
              </li>
            ))}
        </ul>
        {expanded && typed !== null && listed.length === 0 && <p className="searchable-select-none">Không tìm thấy “{typed.trim()}”.</p>}
      </div>
      {/* How many match, for screen readers, while typing. */}
      <span className="visually-hidden" role="status" aria-live="polite">
        {expanded && typed !== null && typed.trim() ? `${listed.length} kết quả` : ''}
      </span>
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
});
