// Live search: every word typed must appear in a tool's text. The query is kept in the
// address (#q=...) so a search can be linked. No network, no dependencies.
(function () {
	var input = document.getElementById("q");
	var count = document.getElementById("count");
	var none = document.getElementById("none");
	var tools = Array.prototype.slice.call(document.querySelectorAll("article.tool"));
	var boxes = Array.prototype.slice.call(document.querySelectorAll("section.toolbox"));

	function apply() {
		var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
		var shown = 0;
		tools.forEach(function (tool) {
			var text = tool.getAttribute("data-search");
			var match = words.every(function (w) { return text.indexOf(w) !== -1; });
			tool.hidden = !match;
			if (match) shown++;
		});
		boxes.forEach(function (box) {
			box.hidden = box.querySelector("article.tool:not([hidden])") === null;
		});
		count.textContent = shown + " of " + tools.length + " tools";
		none.hidden = shown !== 0;
		var hash = words.length ? "#q=" + encodeURIComponent(input.value) : "";
		if (location.hash !== hash && history.replaceState) {
			history.replaceState(null, "", hash || location.pathname);
		}
	}

	var m = /^#q=(.*)$/.exec(location.hash);
	if (m) {
		// A hand-typed link (#q=100%) is not always valid percent-encoding: take it as is.
		try {
			input.value = decodeURIComponent(m[1]);
		} catch (e) {
			input.value = m[1];
		}
	}
	input.addEventListener("input", apply);
	apply();
})();
