// Scaffold: this screen is built by its feature's issue.
export function JoinExamPage() {
  return <div className="container page" />;
}
