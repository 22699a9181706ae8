// (being built: issue 12)
export function CatalogPage() {
  return (
    <section className="admin-page">
      <h1>Danh mục trường, lớp</h1>
    </section>
  );
}
