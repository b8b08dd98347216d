// Carrier for OpenCV's pkg-config flags; CFramelabCV includes OpenCV itself.
