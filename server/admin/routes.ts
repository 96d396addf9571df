/** Site administration, mounted at /api: the site-wide audit log. Applies ADMIN_USERS at start-up. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLogSchema, AuditQuerySchema } from '../../shared/api/admin.ts';
import { requireUser } from '../accounts/auth.ts';
import { badRequest, forbidden } from '../errors.ts';
import { errorResponses } from '../schemas.ts';
import { applyAdminList } from './admins.ts';

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const { t, id } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t: string; id: string };
    const createdAt = new Date(t);
    if (Number.isNaN(createdAt.getTime()) || typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) throw new Error();
    return { createdAt, id };
  } catch {
    throw badRequest('validation_failed', 'query.cursor: is not a cursor returned by this API');
  }
}
const encodeCursor = (row: { createdAt: Date; id: string }) => Buffer.from(JSON.stringify({ t: row.createdAt.toISOString(), id: row.id })).toString('base64url');

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  if (app.settings.adminUsers !== null) await applyAdminList(app.prisma, app.settings.adminUsers, app.log);

  app.get(
    '/admin/audit',
    {
      schema: {
        tags: ['admin'],
        summary: "Every game's game-master actions, newest first (site administrators only)",
        querystring: AuditQuerySchema,
        response: { 200: AuditLogSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!user.isAdmin) throw forbidden('forbidden', 'only site administrators can read the site-wide audit log');
      const { limit, cursor } = request.query;
      const after = cursor ? decodeCursor(cursor) : null;
      const rows = await app.prisma.gameMasterAction.findMany({
        where: after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {},
        include: { actor: { select: { id: true, username: true } }, game: { select: { name: true } } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        actions: page.map((row) => ({
          id: row.id,
          gameId: row.gameId,
          gameName: row.game.name,
          action: row.action,
          actor: row.actor,
          details: row.details as Record<string, unknown>,
          at: row.createdAt.toISOString(),
        })),
        nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
      };
    },
  );
};

export default adminRoutes;
