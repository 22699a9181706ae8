// Scaffold: this screen is built by its feature's issue.
export function VerifyPage() {
  return <div className="container page" />;
}
