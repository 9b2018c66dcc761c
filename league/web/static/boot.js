// Inlined into each page by ttt serve (web.go), before its other
// scripts: a page that loaded while the server restarted may have lost a
// script or a stylesheet, and would stay a skeleton that nothing asks
// again. It waits until the server answers, then loads the page again.
(() => {
  let retrying = false;
  addEventListener(
    "error",
    (e) => {
      const lost = e.target instanceof HTMLScriptElement || e.target instanceof HTMLLinkElement;
      if (!lost || retrying) return;
      retrying = true;
      const say = () => {
        const note = document.createElement("p");
        note.id = "reloading";
        note.textContent = "ttt serve did not answer while this page loaded: it loads again as soon as the server answers.";
        document.body.prepend(note);
      };
      if (document.body) say();
      else addEventListener("DOMContentLoaded", say);
      (async () => {
        for (let wait = 1000; ; wait = Math.min(2 * wait, 10000)) {
          await new Promise((r) => setTimeout(r, wait));
          try {
            if ((await fetch(location.href, { method: "HEAD", cache: "no-store" })).ok) break;
          } catch {
            // still down
          }
        }
        location.reload();
      })();
    },
    true,
  );
})();
