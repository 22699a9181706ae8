// (being built: issue 12)
export function AuditPage() {
  return (
    <section className="admin-page">
      <h1>Nhật ký thao tác</h1>
    </section>
  );
}
