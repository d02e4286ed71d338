// The theme, set before the first paint: the build writes this script into each page (index.html, link.html), where it
// runs first and synchronously (the page's Content-Security-Policy allows it by its hash), so a page chosen dark never
// flashes light.
// lib/theme.ts takes over once the app runs; theme.unit.spec.ts checks that the two read the choice alike.
(function () {
  var choice = null;
  try {
    choice = window.localStorage.getItem('seatlink.theme');
  } catch {
    // Storage refused (a privacy setting): follow the system.
  }
  var dark = choice === 'dark' || (choice !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
})();
