// Scaffold: this screen is built by its feature's issue.
export function ExamPage() {
  return <div className="container page" />;
}
