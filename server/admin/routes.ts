/** Site administration, mounted at /api: the site-wide audit log. Applies ADMIN_USERS at start-up. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditLogSchema, AuditQuerySchema } from '../../shared/api/admin.ts';
import { requireUser } from '../auth/authenticate.ts';
import { forbidden } from '../errors.ts';
import { decodeCursor, olderThan, pageOf } from '../keyset.ts';
import { errorResponses } from '../schemas.ts';
import { applyAdminList } from './admins.ts';
import { auditGameSelect, auditLogView } from '../views/gm-action.ts';
import { gmActionOf } from '../db/tables/gm-log.ts';

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
      const rows = await app.prisma.gameMasterAction.findMany({
        where: cursor ? olderThan('createdAt', decodeCursor(cursor)) : {},
        include: { actor: { select: { id: true, username: true } }, game: { select: auditGameSelect } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit + 1,
      });
      const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
      return auditLogView(
        user,
        page.map((row) => ({ ...gmActionOf(row), game: row.game })),
        nextCursor,
      );
    },
  );
};

export default adminRoutes;
