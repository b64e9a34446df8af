/** Adds words for screen readers only, so that a button's visible "Move up" is read as "Move up question 3". */
export function Hidden({ children }: { readonly children: string }) {
  return <span className="visually-hidden">{children}</span>
}
