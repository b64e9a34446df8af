import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { AdminSession } from '@app/protocol';
import { DescribeAdmin } from '../api/api-docs';
import { AdminAuth } from './admin-auth';

/**
 * The console's sign-in. The console sends the token once, as Bearer, and gets back an HttpOnly
 * cookie that the stream and every admin request carry.
 */
@Controller('admin/api/session')
export class AdminSessionController {
  constructor(private readonly auth: AdminAuth) {}

  @Post()
  @HttpCode(204)
  @DescribeAdmin(
    'Sign in: the admin token as Bearer; the answer sets the session cookie (12 h, HttpOnly, SameSite=Strict, Path=/admin/api)',
    [{ status: 204, description: 'signed in' }],
  )
  signIn(@Req() req: Request, @Res({ passthrough: true }) res: Response): void {
    this.auth.signIn(req, res);
  }

  @Get()
  @DescribeAdmin(
    'Whether this request is the operator\'s, and how: `{via: "cookie", expiresAt}` or `{via: "bearer", expiresAt: null}`',
    [],
    { ok: AdminSession },
  )
  session(@Req() req: Request): AdminSession {
    const credential = this.auth.authenticate(req);
    return { via: credential.via, expiresAt: credential.via === 'cookie' ? credential.expiresAt : null };
  }

  @Delete()
  @HttpCode(204)
  @DescribeAdmin('Sign out: clears the session cookie; always 204', [{ status: 204, description: 'signed out' }])
  signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): void {
    this.auth.signOut(req, res);
  }
}
