// (being built: issue 12)
export function ContestSettingsPage() {
  return (
    <section className="admin-page">
      <h1>Cài đặt cuộc thi</h1>
    </section>
  );
}
