// Scaffold: this screen is built by its feature's issue.
export function HomePage() {
  return <div className="container page" />;
}
