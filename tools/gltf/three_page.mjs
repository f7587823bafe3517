// The page side of three_render.mjs: draws a glTF file with three.js (GLTFLoader, AnimationMixer) at a
// given camera, at rest or at a time of one of its animations, and hands back the picture as a PNG.
// Every surface is drawn plain white on black (unlit): the check compares silhouettes, where the skin
// and the animations show, and lighting models differ between renderers anyway.
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";

const renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
document.body.appendChild(renderer.domElement);
const bytes = new Map();

// White, unlit, keeping what decides coverage: the faces drawn (side), alpha cut-outs and blending.
function plain(material) {
  if (material.isLineBasicMaterial || material.isPointsMaterial) {
    const copy = material.clone();
    copy.color = new THREE.Color(1, 1, 1);
    copy.vertexColors = false;
    copy.map = null;
    return copy;
  }
  const cutout = material.alphaTest > 0;
  return new THREE.MeshBasicMaterial({
    color: 0xffffff,
    side: material.side,
    transparent: material.transparent,
    opacity: material.opacity,
    alphaTest: material.alphaTest,
    map: cutout ? material.map : null,
  });
}

window.threeShot = async (shot) => {
  if (!bytes.has(shot.url)) {
    const response = await fetch(shot.url);
    if (!response.ok) throw new Error(`${shot.url}: HTTP ${response.status}`);
    bytes.set(shot.url, await response.arrayBuffer());
  }
  // A fresh parse for every picture: an animation played before leaves no trace in the rest pose.
  const gltf = await new GLTFLoader().parseAsync(bytes.get(shot.url), "");
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0, 0, 0);
  scene.add(gltf.scene);
  gltf.scene.traverse((object) => {
    if (!object.material) return;
    object.frustumCulled = false; // a skinned mesh's bounds are its bind pose's
    object.material = Array.isArray(object.material) ? object.material.map(plain) : plain(object.material);
  });
  const result = { animations: gltf.animations.map((a) => ({ name: a.name, duration: a.duration })) };
  if (shot.clip !== null && shot.clip !== undefined) {
    const clip = THREE.AnimationClip.findByName(gltf.animations, shot.clip);
    if (!clip) throw new Error(`no animation '${shot.clip}' (has: ${gltf.animations.map((a) => a.name).join(", ")})`);
    const mixer = new THREE.AnimationMixer(gltf.scene);
    mixer.clipAction(clip).play();
    mixer.setTime(shot.time);
  }
  scene.updateMatrixWorld(true);
  const c = shot.camera;
  renderer.setSize(c.width, c.height, false);
  const camera = new THREE.PerspectiveCamera((c.yfov * 180) / Math.PI, c.width / c.height, c.near, c.far);
  camera.matrixAutoUpdate = false;
  camera.matrix.fromArray(c.world_from_camera);
  camera.matrixWorldNeedsUpdate = true;
  camera.updateMatrixWorld(true);
  renderer.render(scene, camera);
  result.png = renderer.domElement.toDataURL("image/png");
  result.renderer = renderer.getContext().getParameter(renderer.getContext().VERSION);
  return result;
};
window.threeReady = true;
