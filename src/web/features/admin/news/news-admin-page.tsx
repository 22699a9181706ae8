// (being built: issue 12)
export function NewsAdminPage() {
  return (
    <section className="admin-page">
      <h1>Tin tức</h1>
    </section>
  );
}
