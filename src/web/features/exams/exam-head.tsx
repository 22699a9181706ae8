// The exam screen's heading: the book (with the "Thi thử" badge on a practice round), the child,
// and the three text sizes for the question and answers, kept on the device.
import { TEXT_SIZES, type TextSize } from './exam-comfort';

export function ExamHead({
  practice,
  bookName,
  childName,
  textSize,
  onTextSize,
}: {
  practice: boolean;
  bookName: string;
  childName: string;
  textSize: TextSize;
  onTextSize: (size: TextSize) => void;
}) {
  return (
    <div className="exam-head">
      <h1 className="exam-title">
        <span className="exam-title-book">
          {practice && <span className="exam-practice-badge">Thi thử</span>}
          {bookName}
        </span>
        <span className="exam-title-child">{childName}</span>
      </h1>
      <TextSizeControl value={textSize} onChange={onTextSize} />
    </div>
  );
}

function TextSizeControl({ value, onChange }: { value: TextSize; onChange: (size: TextSize) => void }) {
  return (
    // Toggle buttons (aria-pressed), each its own tab stop: a radio group would promise arrow keys.
    <div className="exam-text-size" role="group" aria-label="Cỡ chữ">
      <span className="exam-text-size-label" aria-hidden="true">
        Cỡ chữ
      </span>
      {TEXT_SIZES.map((size) => (
        <button
          key={size.value}
          type="button"
          aria-pressed={value === size.value}
          aria-label={size.label}
          className="exam-text-size-option"
          data-size={size.value}
          onClick={() => onChange(size.value)}
        >
          A
        </button>
      ))}
    </div>
  );
}
