// The admin page's one script, under the response's CSP nonce. The page reads without it; it only
// posts actions with the guard header (named by body[data-guard-header]) and shows what they did, and
// reloads the overview every body[data-refresh-seconds] s until paused (remembered in the browser).
(function () {
  var body = document.body;
  var guardHeader = body.getAttribute('data-guard-header');
  var refreshSeconds = parseInt(body.getAttribute('data-refresh-seconds'), 10);
  var notice = sessionStorage.getItem('hookledger.notice');
  if (notice) {
    sessionStorage.removeItem('hookledger.notice');
    var n = JSON.parse(notice), p = document.getElementById('notice');
    p.textContent = n.text; p.className = n.error ? 'error' : ''; p.hidden = false;
  }
  var forms = document.querySelectorAll('form[data-action]');
  for (var i = 0; i < forms.length; i++) { (function (f) {
    f.addEventListener('submit', function (e) {
      e.preventDefault();
      var fields = [];
      for (var k = 0; k < f.elements.length; k++) {
        var el = f.elements[k];
        if (el.name) { fields.push(encodeURIComponent(el.name) + '=' + encodeURIComponent(el.value)); }
      }
      var x = new XMLHttpRequest();
      x.open('POST', f.action);
      x.setRequestHeader(guardHeader, '1');
      x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
      x.setRequestHeader('Accept', 'application/json');
      x.onload = function () {
        var ok = x.status >= 200 && x.status < 300, j = {};
        try { j = JSON.parse(x.responseText); } catch (err) { j = {error: 'HTTP ' + x.status}; }
        sessionStorage.setItem('hookledger.notice', JSON.stringify({text: ok ? j.message : j.error, error: !ok}));
        var next = f.getAttribute('data-next');
        if (ok && next) { location.href = next; } else { location.reload(); }
      };
      x.send(fields.join('&'));
    });
  })(forms[i]); }
  var toggle = document.getElementById('pause');
  if (toggle) {
    var paused = localStorage.getItem('hookledger.paused') === '1';
    var timer = null;
    var show = function () {
      toggle.textContent = paused ? 'resume auto-refresh' : 'pause auto-refresh';
      document.getElementById('refresh-state').textContent = paused ? 'auto-refresh paused'
          : 'refreshes every ' + refreshSeconds + ' s';
      if (timer) { clearTimeout(timer); timer = null; }
      if (!paused) { timer = setTimeout(function () { location.reload(); }, refreshSeconds * 1000); }
    };
    toggle.hidden = false;
    toggle.addEventListener('click', function () {
      paused = !paused; localStorage.setItem('hookledger.paused', paused ? '1' : '0'); show();
    });
    show();
  }
})();
