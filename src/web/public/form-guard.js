// Public pages come drawn in their HTML (docs/decisions/034), and a form is there before the app
// has started. A form sent then would go the browser's own way, with what was typed in the
// address (a password in a URL): until the app has started it is held here. Typed text stays in
// the fields, and the app, once started, handles the next tap.
document.addEventListener(
  'submit',
  function (event) {
    if (!('appStarted' in document.documentElement.dataset)) event.preventDefault();
  },
  true,
);
