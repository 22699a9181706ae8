// Scaffold: this screen is built by its feature's issue.
export function ResultPage() {
  return <div className="container page" />;
}
