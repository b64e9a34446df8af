import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { MetricsText } from '@app/protocol';
import { BuildInfo } from '../config/build-info';
import { openApiOf } from './schema-docs';

/**
 * Serves the HTTP API's OpenAPI description: the UI at /api/docs and the JSON at /api/docs-json. The
 * description is generated from the controllers and their `Describe*` decorators (api-docs.ts),
 * whose shapes are the zod schemas that validate the requests (packages/client/src/http/). The UI's
 * files come from the swagger-ui-dist package on this server, so it works without the internet.
 */
export function describeApi(app: INestApplication, build: BuildInfo): void {
  const config = new DocumentBuilder()
    .setTitle('Trivia rooms HTTP API')
    .setDescription(
      'Rooms, seats, decks and results over HTTP (PROTOCOL.md section 2, docs/protocol.md section 8). ' +
        'Errors are `{statusCode, code, message}`. Play itself goes over the WebSocket at `/ws?token=...`.',
    )
    .setVersion(build.version)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: "a host token (DELETE /api/rooms/{code}), a deck's edit token (/api/decks/{id}) or the admin token (/admin/api)",
    })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // /metrics is the Prometheus module's controller, which carries no decorators of ours.
  const metrics = document.paths['/metrics']?.get;
  if (metrics) {
    metrics.tags = ['operations'];
    metrics.summary = 'Prometheus text format: the families of PROTOCOL.md section 6';
    metrics.responses = { '200': { description: 'the metrics', content: { 'text/plain': { schema: openApiOf(MetricsText) } } } };
  }
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json', customSiteTitle: 'Trivia rooms API' });
}
