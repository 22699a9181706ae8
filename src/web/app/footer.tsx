// Scaffold: replaced by the full footer (organiser, hotline, e-mail, social, sponsors, licence).
export function Footer() {
  return <footer />;
}
