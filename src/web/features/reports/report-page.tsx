// Scaffold: this screen is built by its feature's issue.
export function ReportPage() {
  return <div className="container page" />;
}
