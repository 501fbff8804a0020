// On a phone the navigation scrolls sideways: bring the current page's tab into view.
document.querySelector(".nav a.on")?.scrollIntoView({ block: "nearest", inline: "center" });
