// Small DOM helpers: an element with children (no innerHTML), a definition list, a control's label, space-separated attribute tokens.

/** An element with properties, data attributes and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

/** A definition list of label/value pairs; empty values are left out. */
export function details(pairs: [string, string | undefined][]): HTMLDListElement {
  const dl = el("dl");
  for (const [k, v] of pairs) if (v !== undefined && v !== "") dl.append(el("dt", {}, k), el("dd", {}, v));
  return dl;
}

/** The words of a control's label (its <label> without the "optional" mark, or its aria-label). */
export function labelOf(control: Element): string | undefined {
  const label = (control as HTMLInputElement).labels?.[0];
  if (label) {
    const copy = label.cloneNode(true) as HTMLElement;
    for (const extra of copy.querySelectorAll(".opt, input, select, textarea")) extra.remove();
    const text = copy.textContent?.replace(/\s+/g, " ").trim();
    if (text) return text;
  }
  return control.getAttribute("aria-label") ?? undefined;
}

/** Adds or removes one token of a space-separated attribute such as aria-describedby. */
export function toggleToken(node: Element, attribute: string, token: string, on: boolean): void {
  const tokens = new Set((node.getAttribute(attribute) ?? "").split(/\s+/).filter(Boolean));
  if (on) tokens.add(token);
  else tokens.delete(token);
  if (tokens.size > 0) node.setAttribute(attribute, [...tokens].join(" "));
  else node.removeAttribute(attribute);
}
