/// The page's fingers that the core knows are down, by pointer id, at their
/// last delivered location.
///
/// A handful at most, so a list is as fast as a dictionary, and it keeps
/// another `Dictionary` specialization (about 4 KB) out of the module.
struct FingersDown {
  private var fingers: [(id: Int, location: Point)] = []

  var count: Int { fingers.count }

  subscript(id: Int) -> Point? {
    get { fingers.first { $0.id == id }?.location }
    set {
      let index = fingers.firstIndex { $0.id == id }
      switch (index, newValue) {
      case (let index?, let location?): fingers[index].location = location
      case (let index?, nil): fingers.remove(at: index)
      case (nil, let location?): fingers.append((id, location))
      case (nil, nil): break
      }
    }
  }

  mutating func removeAll() { fingers.removeAll() }
}
