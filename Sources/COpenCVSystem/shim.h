// Carrier for the OpenCV libraries Framelab links (module.modulemap); CFramelabCV includes
// OpenCV itself, from /usr/include/opencv4.
