/** Offers a text the page made as a file to download (a deck exported as CSV or JSON). */
export function downloadFile(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // The browser has taken the file once the click is handled, so the URL is not needed after that.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
