import type { AnchorHTMLAttributes, MouseEvent } from 'react'
import { hrefFor, navigate } from '../lib/router'

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  readonly to: string
}

/** An ordinary link (middle-click and copy work) that navigates in place on a plain click. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
  }
  return <a href={hrefFor(to)} onClick={handle} {...rest} />
}
