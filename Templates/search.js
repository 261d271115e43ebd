// Fanout's search box on the index (README, "Finding a user"): type the start of a username or a uid, get links
// to the users' timelines. No dependencies and no requests outside the site; nothing inline, so a strict
// Content-Security-Policy (script-src 'self') allows it. Without JavaScript the form stays hidden and the index's
// pages are the way through.
//
// Data: `search.json` at the site's root, an array of {"username", "uid", "url"} with url relative to that root.
// A page opened from disk may not fetch, so there the same array comes from `search-data.js`. When the page
// defines `window.fanoutSearchURL` (fanout serve does), each search asks the server instead:
// `fanoutSearchURL + '?q=' + encodeURIComponent(prefix)`, answered with an array of the same shape (the first
// matches) and the number of all matches in the header X-Total-Count.
(function () {
  'use strict';
  var script = document.currentScript;
  var form = document.querySelector('form.search');
  if (!script || !form || !window.fetch) return;
  var root = new URL('.', script.src);
  var input = form.querySelector('input');
  var status = form.querySelector('.search-status');
  var list = form.querySelector('.search-results');
  var shown = 20;      // results listed at most; the status says how many match in all
  var entries = null;  // the static data, with lower-cased names and uids, once loaded
  var loading = null;
  var asked = 0;       // numbers the server's answers, so that a late answer to an older prefix is dropped

  function load() {
    if (loading) return loading;
    if (location.protocol === 'file:') {
      loading = new Promise(function (resolve, reject) {
        var tag = document.createElement('script');
        tag.src = new URL('search-data.js', root).href;
        tag.onload = function () {
          if (Array.isArray(window.fanoutSearchData)) resolve(window.fanoutSearchData);
          else reject(new Error('search-data.js holds no data'));
        };
        tag.onerror = function () { reject(new Error('search-data.js did not load')); };
        document.head.appendChild(tag);
      });
    } else {
      loading = fetch(new URL('search.json', root).href).then(function (response) {
        if (!response.ok) throw new Error('search.json: HTTP ' + response.status);
        return response.json();
      });
    }
    loading = loading.then(function (data) {
      entries = data.map(function (e) {
        return { username: e.username, uid: e.uid, url: e.url,
                 name: String(e.username).toLowerCase(), id: String(e.uid).toLowerCase() };
      });
      return entries;
    });
    return loading;
  }

  // Users whose username or uid starts with `prefix`, ignoring case, in the data's order (by username).
  function match(prefix) {
    var q = prefix.toLowerCase(), found = [];
    for (var i = 0; i < entries.length; i++) {
      var e = entries[i];
      if (e.name.lastIndexOf(q, 0) === 0 || e.id.lastIndexOf(q, 0) === 0) found.push(e);
    }
    return found;
  }

  function say(text) { status.textContent = text; }

  function plural(n, one, many) { return n.toLocaleString('en-US') + ' ' + (n === 1 ? one : many); }

  // Lists the first of `found` and says how many match in all: `total`, or all of `found`.
  function show(prefix, found, total) {
    var count = total === undefined ? found.length : total;
    list.textContent = '';
    found.slice(0, shown).forEach(function (e) {
      var href;
      try { href = new URL(e.url, root); } catch (error) { return; }
      if (href.protocol !== root.protocol) return;  // only pages of this site
      var item = document.createElement('li'), link = document.createElement('a');
      var name = document.createElement('span'), uid = document.createElement('span');
      link.href = href.href;
      name.className = 'username';
      name.textContent = e.username;
      uid.className = 'uid';
      uid.textContent = 'uid ' + e.uid;
      link.appendChild(name);
      link.appendChild(uid);
      item.appendChild(link);
      list.appendChild(item);
    });
    if (count === 0) say('No user’s name or uid starts with “' + prefix + '”.');
    else if (count <= shown) say(plural(count, 'user matches', 'users match') + '.');
    else say('The first ' + shown + ' of ' + plural(count, 'match', 'matches') + '; type more to narrow them.');
  }

  function search() {
    var prefix = input.value.trim();
    if (!prefix) { list.textContent = ''; say(''); return; }
    if (typeof window.fanoutSearchURL === 'string') {
      var ticket = ++asked;
      var total;
      fetch(window.fanoutSearchURL + '?q=' + encodeURIComponent(prefix)).then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        total = parseInt(response.headers.get('X-Total-Count'), 10);
        return response.json();
      }).then(function (found) {
        if (ticket === asked) show(prefix, found, isNaN(total) ? found.length : total);
      }, function (error) {
        if (ticket === asked) say('Search failed: ' + error.message);
      });
      return;
    }
    if (entries) { show(prefix, match(prefix)); return; }
    say('Loading the list of users…');
    load().then(function () {
      if (input.value.trim() === prefix) show(prefix, match(prefix));
    }, function (error) {
      say('Search is unavailable: ' + error.message + '. The pages below list every user.');
    });
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll('a')); }

  input.addEventListener('input', search);
  // Arrow keys move between the box and the results; Escape goes back to the box; Tab works as anywhere.
  input.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown' && links().length) { event.preventDefault(); links()[0].focus(); }
  });
  list.addEventListener('keydown', function (event) {
    var all = links(), at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === 'ArrowDown' && at + 1 < all.length) { event.preventDefault(); all[at + 1].focus(); }
    else if (event.key === 'ArrowUp') { event.preventDefault(); (at > 0 ? all[at - 1] : input).focus(); }
    else if (event.key === 'Escape') { event.preventDefault(); input.focus(); }
  });
  // Enter in the box opens the first result.
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var first = links()[0];
    if (first) location.href = first.href;
  });
  form.hidden = false;
  if (input.value.trim()) search();  // a value the browser restored on going back
})();
