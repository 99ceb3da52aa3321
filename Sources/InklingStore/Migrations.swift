let x = PackageResources.self
