// The page's own types that JSDoc cannot say well (TypeScript reads this file only; the
// messages from the server are in messages.d.ts).

/** What `h` takes as children: nodes, text and numbers, nested lists; null, undefined
 * and false are left out. */
export type Child = Node | string | number | boolean | null | undefined | Child[];

/** An event listener given to `h` as `onNAME`: the event of that name, its
 * `currentTarget` the element being made. */
type Listeners<E extends Element> = {
  [N in keyof HTMLElementEventMap as `on${N}`]?: (
    event: HTMLElementEventMap[N] & { currentTarget: E },
  ) => unknown;
};

/** The properties `h` gives an element: `class`, `dataset`, listeners (`onclick`, ...),
 * `value`; any other is an attribute (true: present, null, undefined or false: absent). */
export type Props<E extends Element = HTMLElement> = Listeners<E> & {
  class?: string | null;
  dataset?: Record<string, string | number | boolean | null | undefined>;
  [attribute: string]: unknown;
};

declare global {
  interface Window {
    /** Set by theme.js: the theme chosen ("auto", "light" or "dark"), applied at once. */
    hanamikojiSetTheme(chosen: string): void;
  }
}
