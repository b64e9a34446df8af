import { Controller, Delete, Get, Headers, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { Request, Response } from 'express';
import { ImageGuard } from '../limits/anonymous-work.guard';
import { IMAGE_LIMITS } from './image-limits';
import { readImageBody, refuseDeclaredTooLarge } from './image-body';
import { ImagesService, ImageUpload } from './images.service';
import { DescribeReadImage, DescribeRemoveImage, DescribeUploadImage } from './images-api-docs';

const bearer = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];

/** An image's id names the same bytes for ever, so a browser or proxy may keep them as long as it likes. */
const CACHED_FOR_EVER = 'public, max-age=31536000, immutable';

@Controller('api')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Post('decks/:id/images')
  @UseGuards(ImageGuard)
  @HttpCode(201)
  @DescribeUploadImage()
  upload(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.images.upload(id, bearer(authorization), bodyOf(req, res));
  }

  @Delete('decks/:id/images/:imageId')
  @UseGuards(ImageGuard)
  @HttpCode(204)
  @DescribeRemoveImage()
  async remove(@Param('id') id: string, @Param('imageId') imageId: string, @Headers('authorization') authorization: string | undefined) {
    await this.images.remove(id, bearer(authorization), imageId);
  }

  @Get('images/:imageId')
  @DescribeReadImage()
  async read(@Param('imageId') imageId: string, @Res() res: Response): Promise<void> {
    const image = await this.images.read(imageId);
    // Express answers 304 to a matching If-None-Match. The id serves as the ETag, because the bytes
    // never change.
    res.set({ 'content-type': image.contentType, 'cache-control': CACHED_FOR_EVER, etag: `"${imageId.toLowerCase()}"` });
    res.send(image.bytes);
  }
}

/**
 * Wraps the request's body as an upload. Until the body has been read whole, an answer closes the
 * connection. That way a refusal (a wrong token, a full deck, a body over 2 MiB) costs no more of
 * the body's bytes.
 */
function bodyOf(req: Request, res: Response): ImageUpload {
  res.setHeader('connection', 'close');
  return {
    contentType: req.headers['content-type'],
    checkDeclaredLength: () => refuseDeclaredTooLarge(req, IMAGE_LIMITS.maxBytes),
    read: async () => {
      const body = await readImageBody(req, IMAGE_LIMITS.maxBytes);
      res.removeHeader('connection');
      return body;
    },
  };
}
