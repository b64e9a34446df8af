import { QrCode } from '../../../components/qr-code'

/** Shows what the people in the room read off the wall: the room's code in large type, the join link and its QR code. */
export function JoinPanel({ code }: { readonly code: string }) {
  const link = `${window.location.origin}/play/${code}`
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(window.location.hostname)
  return (
    <section className="join-panel" aria-label="How to join">
      <p className="join-label">Room code</p>
      <p className="room-code" data-testid="room-code">
        {code}
      </p>
      <QrCode className="join-qr" text={link} label={`QR code of the join link ${link}`} />
      <p className="join-link">
        <a href={link} target="_blank" rel="noreferrer">
          {link.replace(/^https?:\/\//, '')}
        </a>
      </p>
      {local && (
        <p className="hint">
          Phones cannot reach “{window.location.hostname}”: open this page at this computer’s network address (printed by npm start).
        </p>
      )}
    </section>
  )
}
