// The shop's data: a products table, made and filled at start when it is empty.
const PRODUCTS = [
  ['spanner', 'tools', 1250],
  ['hammer', 'tools', 1999],
  ['chisel', 'tools', 850],
  ['gloves', 'garden', 699],
  ['trowel', 'garden', 525]
]

/** @param {import('pg').Pool} pool */
export async function prepareCatalogue (pool) {
  await pool.query(`CREATE TABLE IF NOT EXISTS shop_products (
    id integer PRIMARY KEY, name text NOT NULL, category text NOT NULL, price_cents integer NOT NULL)`)
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM shop_products')
  if (rows[0].n > 0) return
  for (const [index, [name, category, priceCents]] of PRODUCTS.entries()) {
    await pool.query('INSERT INTO shop_products VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [index + 1, name, category, priceCents])
  }
}
