/*
 * The shop's booking page on the shop's own site, with one line:
 *   <script src="https://HOST/book/embed.js" data-slug="my-shop"></script>
 * puts the page in an iframe that sizes itself (the page posts { type: 'bbo:height', height }), or,
 * with data-mode="button" (and an optional data-label), a button that opens it in a dialog.
 * The page only loads where the shop listed this site in its allowed websites (cors_origins): it
 * answers with Content-Security-Policy frame-ancestors naming them.
 */
(function () {
  var script = document.currentScript;
  if (!script) return;
  var slug = script.getAttribute('data-slug') || '';
  if (!/^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/.test(slug)) return;
  var origin = new URL(script.src).origin;
  var src = origin + '/book/' + slug + '?embed=1';

  function frame() {
    var f = document.createElement('iframe');
    f.src = src;
    f.title = script.getAttribute('data-title') || 'Book an appointment';
    f.style.cssText = 'width:100%;border:0;min-height:480px;display:block';
    window.addEventListener('message', function (e) {
      if (e.origin !== origin || e.source !== f.contentWindow || !e.data || e.data.type !== 'bbo:height') return;
      var h = Number(e.data.height);
      if (h > 0 && h < 20000) { f.style.height = h + 'px'; f.style.minHeight = '0'; }
    });
    return f;
  }

  if (script.getAttribute('data-mode') !== 'button') {
    script.parentNode.insertBefore(frame(), script.nextSibling);
    return;
  }

  var button = document.createElement('button');
  button.type = 'button';
  button.textContent = script.getAttribute('data-label') || 'Book now';
  script.parentNode.insertBefore(button, script.nextSibling);
  button.addEventListener('click', function () {
    var dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', 'Book an appointment');
    dialog.style.cssText = 'width:min(46rem,96vw);max-height:92vh;padding:0;border:0;border-radius:8px;overflow:auto';
    var close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Close';
    close.style.cssText = 'position:sticky;top:0;float:right;margin:0.5rem';
    close.addEventListener('click', function () { dialog.close(); });
    dialog.addEventListener('close', function () { dialog.remove(); button.focus(); });
    dialog.appendChild(close);
    dialog.appendChild(frame());
    document.body.appendChild(dialog);
    dialog.showModal();
  });
})();
