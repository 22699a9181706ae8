// Scaffold: this screen is built by its feature's issue.
export function NewsArticlePage() {
  return <div className="container page" />;
}
