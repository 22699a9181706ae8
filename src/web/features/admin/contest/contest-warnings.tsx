// The warnings PUT /admin/contest gives back with a saved setting: the save went through, but
// something wants a second look (results to compute again, a book with fewer questions than an exam draws).
export function ContestWarnings({ warnings, lead }: { warnings: readonly string[]; lead?: string }) {
  if (warnings.length === 0) return null;
  return (
    <div className="contest-warnings" role="status">
      {lead && <strong>{lead}</strong>}
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </div>
  );
}
