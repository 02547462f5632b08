// The stylesheet of the collection view, refresh control and page control renderers
// (issue 12), added once to the page: they came after bindery.css was split by owner.
const CSS = `
.bd-collection { display: flex; flex-direction: column; gap: 8px; max-height: 480px; overflow: auto; padding: 2px; }
.bd-collection-header { color: var(--bd-text-muted); font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.04em; padding: 8px 2px 0; }
.bd-collection-footer { color: var(--bd-text-muted); font-size: 0.85rem; padding: 0 2px 4px; }
.bd-collection-grid { display: grid; justify-content: start; }
.bd-collection[data-scroll-direction="horizontal"] .bd-collection-grid { grid-auto-flow: column; overflow-x: auto; }
.bd-collection-item { position: relative; display: flex; flex-direction: column; justify-content: flex-end; overflow: hidden;
  border-radius: var(--bd-radius-sm, 8px); background: var(--bd-fill, #eee); color: var(--bd-text); cursor: pointer;
  border: 2px solid transparent; padding: 6px; box-sizing: border-box; user-select: none; }
.bd-collection-item:focus-visible { outline: 3px solid var(--bd-focus, #36f); outline-offset: 2px; }
.bd-collection-item[aria-selected="true"] { border-color: var(--bd-accent, #36f); box-shadow: 0 0 0 2px var(--bd-accent, #36f); }
.bd-collection-item.bd-pressed { filter: brightness(0.9); }
.bd-collection-image { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; z-index: 0; pointer-events: none; }
.bd-collection-text, .bd-collection-detail { position: relative; z-index: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bd-collection-text { font-weight: 600; }
.bd-collection-image ~ .bd-collection-text, .bd-collection-image ~ .bd-collection-detail { align-self: flex-start; max-width: 100%;
  background: rgb(255 255 255 / 0.88); color: #1c1c1e; border-radius: 4px; padding: 0 5px; }
.bd-collection-detail { font-size: 0.8rem; opacity: 0.85; }
.bd-collection-empty { color: var(--bd-text-muted); padding: 12px; }
.bd-refresh { display: flex; align-items: center; gap: 8px; margin: 0 0 6px; min-height: 32px; }
.bd-refresh-spinner { width: 16px; height: 16px; border: 2px solid var(--bd-line, #ccc); border-top-color: var(--bd-accent, #36f);
  border-radius: 50%; animation: bd-refresh-spin 0.8s linear infinite; }
.bd-refresh-spinner[hidden] { display: none; }
.bd-refresh-status { color: var(--bd-text-muted); font-size: 0.85rem; }
.bd-refresh-pull { height: 0; overflow: hidden; transition: height 0.15s; text-align: center; color: var(--bd-text-muted); font-size: 0.85rem; }
@keyframes bd-refresh-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .bd-refresh-spinner { animation-duration: 3s; } }
.bd-pages { display: flex; gap: 4px; justify-content: center; align-items: center; padding: 4px; }
.bd-page-dot { width: 24px; height: 24px; border: none; background: none; padding: 0; cursor: pointer; display: grid; place-items: center; }
.bd-page-dot::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: var(--bd-dot, var(--bd-text-muted, #777)); }
.bd-page-dot[aria-current="page"]::before { background: var(--bd-dot-current, var(--bd-text, #222)); width: 10px; height: 10px; }
.bd-page-dot:focus-visible { outline: 3px solid var(--bd-focus, #36f); border-radius: 50%; }
.bd-swipe-target { touch-action: pan-y; }
`;

let added = false;
/** Adds the stylesheet to the page (once). */
export function ensureCollectionStyle() {
  if (added || typeof document === "undefined") return;
  added = true;
  const style = document.createElement("style");
  style.dataset.bindery = "collection";
  style.textContent = CSS;
  document.head.append(style);
}
