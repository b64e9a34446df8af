/** Words for screen readers only: a button's visible "Move up" is read "Move up question 3". */
export function Hidden({ children }: { readonly children: string }) {
  return <span className="visually-hidden">{children}</span>
}
