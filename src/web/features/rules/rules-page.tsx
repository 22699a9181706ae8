// Scaffold: this screen is built by its feature's issue.
export function RulesPage() {
  return <div className="container page" />;
}
