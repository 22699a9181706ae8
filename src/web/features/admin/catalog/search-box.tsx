// A search field that applies on Enter or "Tìm" (a list paged on the server is not asked at
// every key press).
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';

export function SearchBox({ label, onSearch }: { label: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="admin-inline-form" role="search" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} type="search" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <Button type="submit" variant="outline">
        Tìm
      </Button>
    </form>
  );
}
