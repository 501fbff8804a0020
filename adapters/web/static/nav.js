// On a phone the navigation scrolls sideways: bring the current page's tab into view, and show a fade with an
// arrow on each side where more tabs lie (classes more-left / more-right on its wrapper).
(function () {
  const nav = document.querySelector(".nav");
  if (!nav || !nav.parentElement) return;
  const wrap = nav.parentElement;
  const update = () => {
    wrap.classList.toggle("more-left", nav.scrollLeft > 2);
    wrap.classList.toggle("more-right", nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 2);
  };
  nav.querySelector("a.on")?.scrollIntoView({ block: "nearest", inline: "center" });
  update();
  nav.addEventListener("scroll", update, { passive: true });
  window.addEventListener("resize", update);
})();
