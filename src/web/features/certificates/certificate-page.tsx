// Scaffold: this screen is built by its feature's issue.
export function CertificatePage() {
  return <div className="container page" />;
}
