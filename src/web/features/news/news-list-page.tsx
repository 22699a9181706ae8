// Scaffold: this screen is built by its feature's issue.
export function NewsListPage() {
  return <div className="container page" />;
}
