// (being built: issue 12)
export function BooksPage() {
  return (
    <section className="admin-page">
      <h1>Sách và câu hỏi</h1>
    </section>
  );
}
