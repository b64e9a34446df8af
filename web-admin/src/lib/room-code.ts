// A room code has 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L). Case is ignored.
const CODE = /^[A-HJKMNP-Z2-9]{6}$/

/** Upper-cases a typed code and strips its spaces and dashes, since people type codes they read off a screen. */
export function normalizeCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase()
}

export function isRoomCode(code: string): boolean {
  return CODE.test(code)
}
