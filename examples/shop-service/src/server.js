// Starts the shop on PORT (3000 unless told), against the PostgreSQL at DATABASE_URL.
import pg from 'pg'
import { createApp } from './app.js'
import { prepareCatalogue } from './catalogue.js'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await prepareCatalogue(pool)
const server = createApp(pool).listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1')
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))))
