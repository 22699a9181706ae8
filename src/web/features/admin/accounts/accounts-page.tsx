// (being built: issue 12)
export function AccountsPage() {
  return (
    <section className="admin-page">
      <h1>Tài khoản</h1>
    </section>
  );
}
