// Which dialog of a list is open: adding or editing an item, merging it, or deleting it (one at a time).
import { useState } from 'react';

export function useCrudState<T>(onChanged: () => void) {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [merging, setMerging] = useState<T | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const close = () => {
    setEditing(null);
    setMerging(null);
    setDeleting(null);
  };
  return {
    editing,
    merging,
    deleting,
    add: () => setEditing('new'),
    edit: (item: T) => setEditing(item),
    merge: (item: T) => setMerging(item),
    remove: (item: T) => setDeleting(item),
    close,
    /** After a save or a merge: close the dialog and refetch. */
    saved: () => {
      close();
      onChanged();
    },
  };
}
