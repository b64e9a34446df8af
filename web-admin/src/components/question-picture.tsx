/** Shows a question's picture, served by the game server at `/api/images/{id}`, scaled to fit its place. */
export function QuestionPicture({ src, className }: { readonly src: string; readonly className?: string }) {
  return <img className={`question-picture ${className ?? ''}`} src={src} alt="The question’s picture" decoding="async" />
}
