print("wsecho: not yet")
