/**
 * The page's only script, inlined. Every handler is delegated (one listener per page, not per op):
 * zoom, tooltips from the JSON blob, witness highlighting, key filter, copy buttons.
 * Plain ES2017 so any browser opens the file; the page reads fine without it.
 */
export const SCRIPT = `
(function () {
  var plot = document.getElementById('tl-plot');
  var blob = document.getElementById('tl-data');
  var data = blob ? JSON.parse(blob.textContent || '{}') : {};
  var ms = function (t) { return t >= 1000 ? (t / 1000).toFixed(2) + ' s' : t + ' ms'; };
  var tipLines = function (id) {
    var d = data.ops && data.ops[id];
    if (!d) return null;
    var when = d[2] === 'info' ? 'invoked at ' + ms(d[5]) + ', gave up at ' + ms(d[6]) : ms(d[5]) + ' \u2013 ' + ms(d[6]);
    return ['op ' + id + ' \u00b7 client ' + d[0] + ' \u00b7 key ' + data.keys[d[1]], d[3], '\u2192 ' + d[4], d[2] + ' \u00b7 ' + when];
  };
  var tip = document.getElementById('tl-tip');
  if (plot) {
    var base = Number(plot.getAttribute('data-width'));
    var shapes = plot.querySelector('g.plot');
    var movable = plot.querySelectorAll('[data-x]');
    var scroller = plot.parentNode;
    var zoom = 1;
    var apply = function (next) {
      var centre = (scroller.scrollLeft + scroller.clientWidth / 2) / zoom;
      zoom = Math.max(1, Math.min(256, next));
      plot.setAttribute('width', String(base * zoom));
      shapes.setAttribute('transform', 'scale(' + zoom + ',1)');
      for (var i = 0; i < movable.length; i++) {
        var el = movable[i];
        var x = Number(el.getAttribute('data-x')) * zoom;
        if (el.tagName.toLowerCase() === 'g') el.setAttribute('transform', 'translate(' + x + ',0)');
        else el.setAttribute('x', String(x));
        var minZoom = Number(el.getAttribute('data-z') || 0);
        var room = el.hasAttribute('data-room') ? Number(el.getAttribute('data-room')) * zoom : Infinity;
        var need = Number(el.getAttribute('data-w') || 0);
        el.classList.toggle('off', minZoom > zoom || room < need);
      }
      document.getElementById('tl-zoom').textContent = zoom + '\\u00d7';
      scroller.scrollLeft = centre * zoom - scroller.clientWidth / 2;
    };
    document.querySelector('.tl-controls').addEventListener('click', function (e) {
      var b = e.target.closest('button[data-zoom]');
      if (!b) return;
      var how = b.getAttribute('data-zoom');
      apply(how === 'in' ? zoom * 2 : how === 'out' ? zoom / 2 : 1);
    });
    plot.addEventListener('mousemove', function (e) {
      var el = e.target.closest('[data-op-id]');
      var lines = el && tipLines(el.getAttribute('data-op-id'));
      if (!lines) { tip.hidden = true; return; }
      tip.textContent = lines.join('\\n');
      tip.hidden = false;
      tip.style.left = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 8) + 'px';
      tip.style.top = (e.clientY + 16) + 'px';
    });
    plot.addEventListener('mouseleave', function () { tip.hidden = true; });
    var keySelect = document.getElementById('tl-key');
    if (keySelect) keySelect.addEventListener('change', function () {
      var k = keySelect.value;
      var all = plot.querySelectorAll('rect[data-k]');
      for (var i = 0; i < all.length; i++) all[i].classList.toggle('dim', k !== '' && all[i].getAttribute('data-k') !== k);
    });
    var mark = function (id, on) {
      var r = plot.querySelector('rect.op[data-op-id="' + id + '"]');
      if (r) r.classList.toggle('hl', on);
      return r;
    };
    document.addEventListener('mouseover', function (e) {
      var li = e.target.closest && e.target.closest('.wref');
      if (li) mark(li.getAttribute('data-op-id'), true);
    });
    document.addEventListener('mouseout', function (e) {
      var li = e.target.closest && e.target.closest('.wref');
      if (li) mark(li.getAttribute('data-op-id'), false);
    });
    document.addEventListener('click', function (e) {
      var li = e.target.closest && e.target.closest('.wref');
      var r = li && mark(li.getAttribute('data-op-id'), true);
      if (r) r.scrollIntoView({ block: 'center', inline: 'center', behavior: 'smooth' });
    });
  }
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button.copy');
    if (!b) return;
    var text = b.getAttribute('data-text');
    var done = function () { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1200); };
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, function () {});
  });
})();
`;
