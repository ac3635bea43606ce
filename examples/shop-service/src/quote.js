// A quote for a basket: each line's price times its quantity, with a discount of 5 % on lines of 10 or more.
/** @param {{ priceCents: number, quantity: number }[]} lines */
export function quoteCents (lines) {
  let total = 0
  for (const { priceCents, quantity } of lines) {
    const line = priceCents * quantity
    total += quantity >= 10 ? Math.round(line * 0.95) : line
  }
  return total
}
