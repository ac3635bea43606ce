// The shop's routes: a product by id and a category's products from PostgreSQL, and a quote for a basket worked out here.
import express from 'express'
import { quoteCents } from './quote.js'

/** @param {import('pg').Pool} pool */
export function createApp (pool) {
  const app = express()
  app.use(express.json())
  app.get('/health', (request, response) => { response.type('text/plain').send('ok') })
  app.get('/products/:id', async (request, response) => {
    const { rows } = await pool.query('SELECT id, name, category, price_cents AS "priceCents" FROM shop_products WHERE id = $1',
      [Number(request.params.id)])
    if (rows.length === 0) return response.status(404).json({ error: 'no such product' })
    response.json(rows[0])
  })
  app.get('/categories/:category/products', async (request, response) => {
    const { rows } = await pool.query(
      'SELECT id, name, price_cents AS "priceCents" FROM shop_products WHERE category = $1 ORDER BY id', [request.params.category])
    response.json({ category: request.params.category, products: rows })
  })
  app.post('/quote', (request, response) => {
    const lines = Array.isArray(request.body?.lines) ? request.body.lines : null
    if (!lines) return response.status(400).json({ error: 'lines must be a list' })
    response.json({ totalCents: quoteCents(lines), lines: lines.length })
  })
  return app
}
