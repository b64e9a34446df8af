import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ImageUpload } from './image-upload'

type Sent = { url: string; method: string; body: unknown; type: string | null; authorization: string | null }

/** A fetch that answers every request with `status` and `body`, and keeps what was sent. */
function serve(status: number, body: unknown) {
  const sent: Sent[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      sent.push({
        url,
        method: init.method ?? 'GET',
        body: init.body,
        type: headers.get('content-type'),
        authorization: headers.get('authorization'),
      })
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    }),
  )
  return sent
}

const DECK = '5b0c6f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f'
const IMAGE = '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a'
const png = (bytes = 64) => new File([new Uint8Array(bytes)], 'map.png', { type: 'image/png' })

describe(ImageUpload.name, () => {
  afterEach(() => vi.unstubAllGlobals())

  it('uploads the chosen file as the body with the edit token, and hands the server’s id back', async () => {
    const sent = serve(201, { imageId: IMAGE, url: `/api/images/${IMAGE}`, width: 800, height: 600 })
    const uploaded = vi.fn()
    const file = png()
    render(<ImageUpload deckId={DECK} editToken="tok-1" label="Picture for question 1" onUploaded={uploaded} />)
    await userEvent.setup().upload(screen.getByLabelText('Picture for question 1'), file)
    await waitFor(() => expect(uploaded).toHaveBeenCalledWith(IMAGE))
    expect(sent).toEqual([
      { url: `/api/decks/${DECK}/images`, method: 'POST', body: file, type: 'image/png', authorization: 'Bearer tok-1' },
    ])
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows the picture the question has, and offers to remove it', async () => {
    const removed = vi.fn()
    render(
      <ImageUpload
        deckId={DECK}
        editToken="tok-1"
        imageId={IMAGE}
        label="Picture for question 2"
        onUploaded={vi.fn()}
        onRemoved={removed}
      />,
    )
    expect(screen.getByRole('img', { name: 'Picture for question 2: chosen picture' })).toHaveAttribute('src', `/api/images/${IMAGE}`)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove picture (Picture for question 2)' }))
    expect(removed).toHaveBeenCalledTimes(1)
  })

  it('shows the server’s refusal and keeps the question as it was', async () => {
    serve(400, { statusCode: 400, code: 'bad_image', message: 'the image could not be read: VipsJpeg: premature end of JPEG image' })
    const uploaded = vi.fn()
    render(<ImageUpload deckId={DECK} editToken="tok-1" label="Picture for question 1" onUploaded={uploaded} />)
    await userEvent.setup().upload(screen.getByLabelText('Picture for question 1'), png())
    expect(await screen.findByRole('alert')).toHaveTextContent('the image could not be read: VipsJpeg: premature end of JPEG image')
    expect(uploaded).not.toHaveBeenCalled()
    expect(screen.getByLabelText('Picture for question 1')).toHaveAccessibleDescription(/could not be read/)
  })

  it('says so in its own words when the deck is full', async () => {
    serve(409, { statusCode: 409, code: 'deck_images_full', message: 'a deck holds at most 200 images' })
    render(<ImageUpload deckId={DECK} editToken="tok-1" label="Picture for question 1" onUploaded={vi.fn()} />)
    await userEvent.setup().upload(screen.getByLabelText('Picture for question 1'), png())
    expect(await screen.findByRole('alert')).toHaveTextContent('This deck holds as many pictures as it may.')
  })

  it('refuses a file over 2 MiB, or of another type, without sending it', async () => {
    const sent = serve(201, {})
    render(<ImageUpload deckId={DECK} editToken="tok-1" label="Picture for question 1" onUploaded={vi.fn()} />)
    const user = userEvent.setup({ applyAccept: false })
    await user.upload(screen.getByLabelText('Picture for question 1'), png(2 * 1024 * 1024 + 1))
    expect(await screen.findByRole('alert')).toHaveTextContent('That picture is larger than 2 MiB.')
    await user.upload(screen.getByLabelText('Picture for question 1'), new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('A picture must be a PNG, JPEG or WebP file.')
    expect(sent).toEqual([])
  })
})
