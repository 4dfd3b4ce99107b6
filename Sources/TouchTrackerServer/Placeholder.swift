// placeholder until the server branch lands
